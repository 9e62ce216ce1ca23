export interface Layer {
  pure: boolean;
  imports: string[];
  route: string;
}
export const LAYERS: Record<string, Layer>;
export function partOf(pathInSrc: string): string;
export function mayImport(from: string, target: string): boolean;
