// Asynchronous boundary: the shared React, router and toast singletons are negotiated
// before any of them is used. The remotes' locations are requested at the same time.
import { registerRuntimeRemotes } from './features/federation/remotes-config';

void registerRuntimeRemotes();
void import(/* webpackChunkName: "bootstrap" */ './bootstrap');
