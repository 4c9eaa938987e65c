// The parts of structured-data-testing-tool (which ships no types) that the validator suite uses.
declare module 'structured-data-testing-tool' {
  /** A JMESPath query over the page's structured data and meta tags, optionally with the value it must have. */
  export interface StructuredDataTest {
    test: string;
    expect?: unknown;
    type?: 'jsonld' | 'microdata' | 'rdfa' | 'metatag' | 'any';
    description?: string;
    warning?: boolean;
  }
  export interface StructuredDataTestResult extends StructuredDataTest {
    passed: boolean;
    error?: { message: string };
  }
  export interface StructuredDataResult {
    passed: StructuredDataTestResult[];
    failed: StructuredDataTestResult[];
    warnings: StructuredDataTestResult[];
    schemas: string[];
  }
  export interface Preset {
    name: string;
    description: string;
  }
  export function structuredDataTest(
    input: string | Buffer,
    options?: { presets?: Preset[]; tests?: StructuredDataTest[]; schemas?: string[] },
  ): Promise<StructuredDataResult>;
}

declare module 'structured-data-testing-tool/presets' {
  import type { Preset } from 'structured-data-testing-tool';
  export const Google: Preset;
  export const Twitter: Preset;
  export const Facebook: Preset;
}
