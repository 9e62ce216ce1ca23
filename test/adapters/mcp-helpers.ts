// The MCP tests' in-process connection: the SDK's real Client and a server over the SDK's in-memory
// transport, every message each side sends recorded, every protocol error kept.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach } from "vitest";

/** A connected client and server. */
export interface Connection<TEvidence = unknown> {
  client: Client;
  server: McpServer;
  evidence: TEvidence;
  /** Every message each side sent, in order. */
  sent: { client: JSONRPCMessage[]; server: JSONRPCMessage[] };
  /** Every error either side's protocol reported (a response or a notification for an unknown request lands here). */
  errors: { client: Error[]; server: Error[] };
  /** Replaces how the server's transport sends (to make a send fail). */
  serverSend: (wrap: (send: (message: JSONRPCMessage) => Promise<void>, message: JSONRPCMessage) => Promise<void>) => void;
  close: () => Promise<void>;
}

const open: Connection[] = [];
// Every connection a test opened is closed after it, evidence (anything with close()) included.
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.close();
});

/** Connects a Client to `server` in-process; closed after the test. */
export async function connectInMemory<TEvidence>(server: McpServer, evidence: TEvidence): Promise<Connection<TEvidence>> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent: Connection["sent"] = { client: [], server: [] };
  const errors: Connection["errors"] = { client: [], server: [] };
  type Send = InMemoryTransport["send"];
  const record = (transport: InMemoryTransport, into: JSONRPCMessage[]): Send => {
    const send = transport.send.bind(transport);
    const recording: Send = (message, options) => {
      into.push(message);
      return send(message, options);
    };
    transport.send = recording;
    return recording;
  };
  record(clientTransport, sent.client);
  const recorded = record(serverTransport, sent.server);
  server.server.onerror = (error) => errors.server.push(error);
  await server.connect(serverTransport);
  const client = new Client({ name: "agent-evidence-test", version: "1.0.0" });
  client.onerror = (error) => errors.client.push(error);
  await client.connect(clientTransport);
  const connection: Connection<TEvidence> = {
    client,
    server,
    evidence,
    sent,
    errors,
    serverSend: (wrap) => {
      serverTransport.send = (message, options) => wrap((m) => recorded(m, options), message);
    },
    close: async () => {
      await client.close();
      await server.close();
      const closable = evidence as { close?: () => Promise<void> } | undefined;
      await closable?.close?.();
    },
  };
  open.push(connection);
  return connection;
}

/** The text content of a tool result, joined. */
export function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("");
}
