// autocannon ships no type declarations; the bench uses a small part of its programmatic API.
declare module 'autocannon' {
  const autocannon: (opts: Record<string, unknown>) => Promise<any> & { stop?: () => void };
  export default autocannon;
}
