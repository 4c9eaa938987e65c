import { PAGE_DATA_IDS, type ServerData, type ServerDataEntry } from './server-rendering';

let provided: ServerData | undefined;

/** On the server: the data the render may read. */
export function provideServerData(data: ServerData): void {
  provided = data;
}

/** The browser's document; this module is also compiled for the API, which has no DOM types. */
interface PageDocument {
  getElementById(id: string): { textContent: string | null } | null;
}

function pageData(): ServerData {
  if (provided) return provided;
  const { document } = globalThis as { document?: PageDocument };
  const element = document?.getElementById(PAGE_DATA_IDS.serverData) ?? null;
  try {
    provided = element?.textContent ? (JSON.parse(element.textContent) as ServerData) : {};
  } catch {
    provided = {};
  }
  return provided;
}

/**
 * The API response the server rendered with (on the server: the data provided; in the browser: the
 * JSON the page came with), so a component's first render matches the markup already on screen.
 */
export function serverDataFor(apiPath: string): ServerDataEntry | undefined {
  return pageData()[apiPath];
}
