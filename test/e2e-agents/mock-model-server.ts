// The mock model server ships with Jig (`jig admin harnesses test` runs a CLI against it); the
// end-to-end tests use the same one.
export * from '../../src/runtime/harness/mock-model/server.js';
