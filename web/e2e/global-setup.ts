// Starts the server once for the end-to-end run: a fresh SQLite file, the built web app, a free
// port on the loopback. Its address reaches the tests as `baseURL`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not become healthy");
}

export default async function setup(project: TestProject) {
  const binary = process.env.SOCIO_BIN;
  if (!binary) throw new Error("SOCIO_BIN must point at the socio binary (make test-e2e sets it)");
  const dir = mkdtempSync(join(tmpdir(), "socio-e2e-"));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn(binary, ["serve"], {
    env: {
      ...process.env,
      SOCIO_ADDR: `127.0.0.1:${port}`,
      PUBLIC_URL: baseURL,
      DATABASE_URL: `sqlite://${join(dir, "e2e.db")}`,
      SOCIO_WEB_DIR: resolve("dist"),
      JWT_SECRET: "e2e-secret-that-is-long-enough-0123456789",
      RUST_LOG: "warn",
      WHATSAPP_BATCH_WINDOW_MS: "300",
      // The product's number, as a deployment configures it (unset, the site shows none).
      WHATSAPP_BUSINESS_NUMBER: "5511900000000",
      ADMIN_PHONES: "+5531999990000,+5531999990001,+5531999990002,+5531999990003,+5531999990004,+5531999990005",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(baseURL, server);
  project.provide("baseURL", baseURL);
  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  };
}
