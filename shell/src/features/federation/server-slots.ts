import { SERVER_SLOT_ATTRIBUTE, type RemoteModuleId } from '@agency/shared';

// Markup the server rendered into slots, read before React first renders (which replaces it).
const captured = new Map<string, string>();

/** Remembers the server markup of every slot under `root`; call once, before the first render. */
export function captureServerSlots(root: ParentNode): void {
  for (const element of root.querySelectorAll(`[${SERVER_SLOT_ATTRIBUTE}]`)) {
    const id = element.getAttribute(SERVER_SLOT_ATTRIBUTE);
    if (id) captured.set(id, element.innerHTML);
  }
}

/** The server markup a slot keeps showing until its remote has loaded, so nothing blinks or jumps. */
export function serverSlotHtml(id: RemoteModuleId): string | undefined {
  return captured.get(id);
}

/** After the first client navigation the server's markup belongs to another page. */
export function forgetServerSlots(): void {
  captured.clear();
}
