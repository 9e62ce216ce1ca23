// A journal's seal: the key that authenticates its lines and the tip its writer last committed, in
// one small file outside the workspace (journal.ts says why). The tip line is rewritten in place.
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";

import { EvidenceError } from "../errors.js";

/** The key that authenticates a journal's lines, and the tip its writer last committed. */
export interface JournalSeal {
  key: Buffer;
  tip: JournalTip | null;
}

/** How many valid lines the journal holds, and the hmac of the last one. */
export interface JournalTip {
  lines: number;
  mac: string;
}

/** Hex digits of an hmac (SHA-256). */
export const MAC_HEX = 64;
const NO_MAC = "-".repeat(MAC_HEX);
const SEAL_HEADER = "agent-evidence journal seal 1\n";

// The seal file: a header, the key, and the tip line, which is rewritten in place (fixed width).
export interface SealFile {
  key: Buffer;
  writeTip(tip: JournalTip): void;
  close(): void;
}

const tipLine = (tip: JournalTip | null): string =>
  `tip ${String(tip?.lines ?? 0).padStart(12, "0")} ${tip === null || tip.lines === 0 ? NO_MAC : tip.mac}\n`;

export function createSeal(path: string): SealFile {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  const fd = openSync(path, "w", 0o600);
  writeSync(fd, `${SEAL_HEADER}key ${key.toString("hex")}\n${tipLine(null)}`);
  fsyncSync(fd);
  closeSync(fd);
  return openSeal(path, key);
}

export function openSeal(path: string, key: Buffer): SealFile {
  const fd = openSync(path, "r+");
  const tipOffset = SEAL_HEADER.length + `key ${key.toString("hex")}\n`.length;
  return {
    key,
    writeTip(tip) {
      writeSync(fd, tipLine(tip), tipOffset);
    },
    close() {
      closeSync(fd);
    },
  };
}

/** Reads a seal; null when there is none. A seal that exists but is malformed is an `E_IO` error. */
export function readSeal(path: string): JournalSeal | null {
  let text: string;
  try {
    const fd = openSync(path, "r");
    try {
      if (!fstatSync(fd).isFile()) throw new EvidenceError("E_IO", `The journal seal ${path} is not a regular file.`);
      const buffer = Buffer.alloc(512);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, read).toString("latin1");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    if (error instanceof EvidenceError) throw error;
    throw new EvidenceError("E_IO", `Cannot read the journal seal ${path}: ${(error as Error).message}`, { cause: error });
  }
  const match = /^agent-evidence journal seal 1\nkey ([0-9a-f]{64})\ntip (\d{12}) ([0-9a-f]{64}|-{64})\n$/.exec(text);
  if (match === null) throw new EvidenceError("E_IO", `The journal seal ${path} is malformed.`);
  const lines = Number(match[2]);
  return { key: Buffer.from(match[1] ?? "", "hex"), tip: { lines, mac: lines === 0 ? "" : (match[3] ?? "") } };
}
