export type Purpose = "demo" | "test";
export interface Requirement {
  name: string;
  command: string[];
  pkg: string;
  for: Purpose[];
  outsideHome?: boolean;
  optionalFor?: Partial<Record<Purpose, string>>;
}
export const REQUIREMENTS: Requirement[];
export const PURPOSES: Purpose[];
export function aptPackages(purpose: Purpose): string[];
export function requirementsFor(purpose: Purpose): Requirement[];
export function missingRequirements(purpose?: Purpose, env?: NodeJS.ProcessEnv): Requirement[];
export function blockingRequirements(missing: Requirement[], purpose: Purpose): Requirement[];
export function renderInstallHint(missing: Requirement[], purpose?: Purpose): string;
