import type { Proof, ProofRun } from '../proof.ts';
export const fuzz: Proof = { name: 'fuzz', title: 'todo', budgetMs: 10_000, async run(p: ProofRun) { p.skip('not written yet'); } };
