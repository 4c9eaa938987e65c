import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; react-router 7 needs them at import time.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// A test that types a whole form through user-event does seconds of jsdom work: on a machine busy
// with other suites, Jest's default 5 s failed such tests of a correct product (docs/testing.md).
// (Jest reads testTimeout from the root config only.)
jest.setTimeout(30_000);
