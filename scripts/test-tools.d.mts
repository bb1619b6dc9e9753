// Types of scripts/test-tools.mjs (plain JavaScript, because it runs before `npm ci`).
export interface TestTool {
  readonly name: string;
  readonly package: string;
  readonly kind: 'build' | 'window' | 'reference';
  readonly why: string;
  present(): boolean;
}
export const PYTHON: string;
export const CHROMIUM: string;
export const TEST_TOOLS: readonly TestTool[];
export function missingTools(tools?: readonly TestTool[]): TestTool[];
export function installCommand(tools: readonly TestTool[]): string;
export function ensureTestTools(tools?: readonly TestTool[], log?: (line: string) => void): boolean;
