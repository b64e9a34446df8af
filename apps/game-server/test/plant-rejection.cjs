// Loaded into a real server process by faults.e2e-spec.ts (NODE_OPTIONS=--require): on SIGUSR2
// it makes a promise rejection that nothing handles, as a forgotten `await` would, so that the
// test can watch the process survive it. It changes nothing else in the server.
process.on('SIGUSR2', () => {
  Promise.reject(new Error('a rejection planted by the test'));
});
