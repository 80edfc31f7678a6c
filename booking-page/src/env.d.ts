// Vite's worker import (altcha's proof-of-work workers are emitted as files of the build).
declare module '*?worker' {
  const WorkerConstructor: { new (): Worker };
  export default WorkerConstructor;
}
declare module '*.css';
