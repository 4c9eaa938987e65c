// Asynchronous boundary: the shared React, router and toast singletons are negotiated
// before any of them is used. The remotes' locations are registered first.
import { registerRuntimeRemotes } from './features/federation/remotes-config';

void registerRuntimeRemotes();
// The federation runtime has just started up in this task; asking for the page's code (which
// negotiates every shared module) in the next one keeps each task short enough that a tap
// during start-up is answered at once.
setTimeout(() => void import(/* webpackChunkName: "bootstrap" */ './bootstrap'), 0);
