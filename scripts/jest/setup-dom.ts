import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; react-router 7 needs them at import time.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// A test that types a whole form through user-event does seconds of jsdom work (2–3 s per
// contact-form test in npm test one suite at a time); two suites at a time beside the container
// lane, Jest's default 5 s failed four of them. (Jest reads testTimeout from the root config only.)
jest.setTimeout(30_000);
