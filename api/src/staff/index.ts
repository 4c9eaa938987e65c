/**
 * The one entry into the staff console for the composition (app.ts): its API plugin, and whether a
 * staff session may still hold a browser's override of a remote (which app.ts gives delivery).
 */
export { staffPlugin, type StaffPluginOptions } from './staff-plugin';
export { overrideHolderMayAct } from './releases/override-holder';
