// Asynchronous boundary: the shared React, router and toast singletons are negotiated
// before any of them is used. The remotes' locations are requested at the same time.
import { afterFirstPaint } from './app/after-first-paint';
import { registerRuntimeRemotes } from './frame/federation/remotes-config';

void registerRuntimeRemotes();
// The page's code and its libraries (React DOM alone is about 55 KiB) are asked for once the
// server's markup is on screen. Where this script arrives first (a fast connection, a cached
// visit), its requests would otherwise share the network with what the first paint still needs
// (fonts, the post's cover), and its evaluation would push the paint back.
// The development server's page arrives empty, with nothing to paint first.
const serverRendered = document.getElementById('root')?.hasChildNodes() ?? false;
void (serverRendered ? afterFirstPaint() : Promise.resolve()).then(() => import(/* webpackChunkName: "bootstrap" */ './bootstrap'));
