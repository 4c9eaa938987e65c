/** The one entry into the staff console for the composition (app.ts): its API plugin. */
export { staffPlugin, type StaffPluginOptions } from './staff-plugin';
