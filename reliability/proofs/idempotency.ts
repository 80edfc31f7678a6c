import type { Proof, ProofRun } from '../proof.ts';
export const idempotency: Proof = { name: 'idempotency', title: 'todo', budgetMs: 10_000, async run(p: ProofRun) { p.skip('not written yet'); } };
