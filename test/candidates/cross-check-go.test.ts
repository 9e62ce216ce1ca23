// Issue 16 acceptance, the go module: see cross-check-suite.ts.
import { crossCheck } from "./cross-check-suite.js";

crossCheck("go");
