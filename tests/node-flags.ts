/**
 * The V8 flags of the Node processes the tests start that run PGlite: vitest's API workers, the servers
 * and scripts the tests spawn, and the demo seed npm test makes.
 *
 * `--liftoff-only` keeps PGlite's WebAssembly on V8's baseline compiler (Liftoff) instead of optimising
 * its hot functions again with TurboFan on background threads. A test process lives for seconds to
 * minutes, too short for that second compilation to pay for itself: a server on a copy of the demo seed
 * took 5.8 s of CPU to start and 4.5 s with the flag, and answered the same 300 requests with no more CPU;
 * ten API files on PGlite took 47 to 50 s of CPU and 43 s with it. Measured on two cores, Node 20.
 *
 * The service itself (npm start) keeps V8's defaults: it runs for days, where the optimised code wins.
 */
export const PGLITE_NODE_FLAGS = ['--liftoff-only'];
