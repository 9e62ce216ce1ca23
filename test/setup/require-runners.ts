// The suite runs real runners; a missing one fails the whole run with the install hint, never a skip.
import { missingRequirements, renderInstallHint } from "../../scripts/runners.mjs";

export default function requireRunners(): void {
  const missing = missingRequirements();
  if (missing.length > 0) throw new Error(renderInstallHint(missing));
}
