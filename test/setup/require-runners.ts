// The suite runs real runners; a missing one fails the whole run with the install hint, never a skip.
import { blockingRequirements, missingRequirements, renderInstallHint } from "../../scripts/runners.mjs";

export default function requireRunners(): void {
  const missing = missingRequirements("test");
  if (blockingRequirements(missing, "test").length > 0) throw new Error(renderInstallHint(missing, "test"));
}
