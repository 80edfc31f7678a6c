import type { Proof, ProofRun } from '../proof.ts';
export const rateLimits: Proof = { name: 'rate-limits', title: 'todo', budgetMs: 10_000, async run(p: ProofRun) { p.skip('not written yet'); } };
