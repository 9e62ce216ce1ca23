export interface Requirement { name: string; command: string[]; pkg: string | null }
export const APT_PACKAGES: string[];
export const REQUIREMENTS: Requirement[];
export function missingRequirements(): Requirement[];
export function renderInstallHint(missing: Requirement[]): string;
