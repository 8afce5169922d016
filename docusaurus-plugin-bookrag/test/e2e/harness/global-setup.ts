/**
 * Everything the browser tests run against, on loopback:
 * - a copy of the sample book (book/) with the test pages, built by Docusaurus with this plugin
 *   and `apiUrl` pointing at the offline server, served by `docusaurus serve` from an address
 *   that is not the configured SITE_URL (http://localhost:3000), as a reader may see it;
 * - `bookrag serve` with offline answers (no LLM), on the book's docs plus a poisoned page,
 *   after a real `bookrag ingest`, with real Postgres;
 * - a second `bookrag serve` on the same index whose LLM is a stub OpenAI-compatible server
 *   (slow streaming, or down: degraded answers).
 * Ports are fixed (override with BOOKRAG_E2E_PORT_BASE) so a built site can be reused.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {startStubLlm} from './stub-llm';

const PLUGIN_DIR = path.resolve(__dirname, '../../..');
export const REPO = path.resolve(PLUGIN_DIR, '..');

export const BOOKRAG = process.env.BOOKRAG_BIN ?? path.join(REPO, '.venv/bin/bookrag');

export interface E2eEnv {
  configuredSiteUrl: string;
  site: string;
  api: string;
  llmApi: string;
  stub: string;
  databaseUrl: string;
  work: string;
}

function log(message: string) {
  process.stdout.write(`[e2e setup] ${message}\n`);
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function waitFor(url: string, what: string, child: ChildProcess | null, seconds = 90) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}; see its log in the work folder`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} did not answer ${url} within ${seconds} s`);
}

/** The environment of the servers and the build: this one, without settings that would change
 * what the tests expect (a real LLM, another store, another site layout). */
export function baseEnv(): NodeJS.ProcessEnv {
  const env = {...process.env};
  for (const key of ['LLM_MODEL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'EMBEDDINGS', 'QDRANT_URL', 'QDRANT_API_KEY', 'SITE_BASE_URL', 'DOCS_ROUTE_BASE', 'DATABASE_URL', 'BOOK_ID', 'CORS_ORIGINS']) {
    delete env[key];
  }
  return {...env, SITE_URL: CONFIGURED_SITE_URL};
}

/** Where the server and the build believe the book is published; the tests open it elsewhere. */
const CONFIGURED_SITE_URL = 'http://localhost:3000';

function run(command: string, args: string[], options: {cwd: string; env?: NodeJS.ProcessEnv; what: string}) {
  const started = Date.now();
  const result = spawnSync(command, args, {cwd: options.cwd, env: {...baseEnv(), ...options.env}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  if (result.status !== 0) {
    throw new Error(`${options.what} failed (${result.status}):\n${(result.stdout ?? '').slice(-4000)}\n${(result.stderr ?? '').slice(-4000)}`);
  }
  log(`${options.what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.stdout;
}

export function start(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, 'w');
  return spawn(command, args, {cwd, env: {...baseEnv(), ...env}, stdio: ['ignore', out, out], detached: true});
}

async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({connectionString: admin.toString()});
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

function copySite(bookDir: string, siteDir: string) {
  fs.rmSync(siteDir, {recursive: true, force: true});
  fs.cpSync(bookDir, siteDir, {
    recursive: true,
    filter: (source) => !['node_modules', 'build', '.docusaurus'].includes(path.basename(source)),
  });
  fs.symlinkSync(path.join(bookDir, 'node_modules'), path.join(siteDir, 'node_modules'));
  fs.copyFileSync(path.join(__dirname, '../book/04-linking-between-lessons.md'), path.join(siteDir, 'docs/01-ros2/04-linking-between-lessons.md'));
}

export default async function globalSetup() {
  const base = Number(process.env.BOOKRAG_E2E_PORT_BASE ?? 18430);
  const ports = {api: base + 1, llmApi: base + 2, stub: base + 3, site: base + 4};
  for (const [name, port] of Object.entries(ports)) {
    if (!(await portFree(port))) throw new Error(`port ${port} (${name}) is busy: stop what uses it or set BOOKRAG_E2E_PORT_BASE`);
  }
  const bookDir = path.resolve(process.env.BOOKRAG_E2E_BOOK ?? path.join(REPO, 'book'));
  const bookrag = BOOKRAG;
  const databaseUrl = process.env.BOOKRAG_E2E_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bookrag_e2e';
  if (!fs.existsSync(path.join(bookDir, 'node_modules/docusaurus-plugin-bookrag'))) {
    throw new Error(`${bookDir}/node_modules has no docusaurus-plugin-bookrag: run \`npm ci\` in ${bookDir} first`);
  }
  const work = process.env.BOOKRAG_E2E_WORK ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bookrag-e2e-'));
  fs.mkdirSync(work, {recursive: true});
  log(`work folder ${work}`);
  const env: E2eEnv = {
    configuredSiteUrl: CONFIGURED_SITE_URL,
    site: `http://127.0.0.1:${ports.site}`,
    api: `http://127.0.0.1:${ports.api}`,
    llmApi: `http://127.0.0.1:${ports.llmApi}`,
    stub: `http://127.0.0.1:${ports.stub}`,
    databaseUrl,
    work,
  };

  // The site: a copy of book/ with the test pages, built for the offline server.
  const siteDir = path.join(work, 'site');
  const reuse = process.env.BOOKRAG_E2E_REUSE_SITE === '1' && fs.existsSync(path.join(siteDir, 'build/index.html'));
  if (!reuse) {
    copySite(bookDir, siteDir);
    run(path.join(siteDir, 'node_modules/.bin/docusaurus'), ['build'], {
      cwd: siteDir,
      env: {BOOKRAG_API_URL: env.api},
      what: 'docusaurus build',
    });
  }

  // The index: the site's docs plus the poisoned page, ingested once, copied for the LLM server.
  const docsDir = path.join(work, 'docs');
  fs.rmSync(docsDir, {recursive: true, force: true});
  fs.cpSync(path.join(siteDir, 'docs'), docsDir, {recursive: true});
  fs.copyFileSync(path.join(__dirname, '../book/99-teleoperation.md'), path.join(docsDir, '99-teleoperation.md'));
  await ensureDatabase(databaseUrl);
  const serverEnv = {
    DATABASE_URL: databaseUrl,
    BOOK_DOCS_DIR: docsDir,
    CORS_ORIGINS: JSON.stringify([env.site]),
    RATE_LIMIT_CLIENT_PER_MINUTE: '0',
    RATE_LIMIT_SESSION_PER_MINUTE: '6',
  };
  const offlineData = path.join(work, 'data-offline');
  const llmData = path.join(work, 'data-llm');
  fs.rmSync(offlineData, {recursive: true, force: true});
  fs.rmSync(llmData, {recursive: true, force: true});
  run(bookrag, ['ingest'], {cwd: REPO, env: {...serverEnv, DATA_DIR: offlineData}, what: 'bookrag ingest'});
  fs.cpSync(offlineData, llmData, {recursive: true});

  const children: ChildProcess[] = [];
  const {server: stub} = await startStubLlm(ports.stub);
  // The offline server also serves the built site at `/` (as `make run` does), so the chat can be
  // read from the API's own address too.
  children.push(
    start(bookrag, ['serve', '--host', '127.0.0.1', '--port', String(ports.api)], REPO, {
      ...serverEnv,
      DATA_DIR: offlineData,
      SITE_BUILD_DIR: path.join(siteDir, 'build'),
    }, path.join(work, 'server-offline.log')),
  );
  children.push(
    start(bookrag, ['serve', '--host', '127.0.0.1', '--port', String(ports.llmApi)], REPO, {
      ...serverEnv,
      DATA_DIR: llmData,
      LLM_MODEL: 'openai:stub-model',
      OPENAI_BASE_URL: `${env.stub}/v1`,
      OPENAI_API_KEY: 'sk-stub',
      LLM_TIMEOUT_SECONDS: '5',
      LLM_MAX_RETRIES: '0',
    }, path.join(work, 'server-llm.log')),
  );
  children.push(
    start(path.join(siteDir, 'node_modules/.bin/docusaurus'), ['serve', '--dir', 'build', '--host', '127.0.0.1', '--port', String(ports.site), '--no-open'], siteDir, {}, path.join(work, 'site.log')),
  );
  const [offline, llm, site] = children;
  await Promise.all([
    waitFor(`${env.api}/health`, 'bookrag serve (offline)', offline!),
    waitFor(`${env.llmApi}/health`, 'bookrag serve (stub LLM)', llm!),
    waitFor(`${env.site}/`, 'docusaurus serve', site!),
  ]);
  log(`site ${env.site}, offline API ${env.api}, LLM API ${env.llmApi}`);
  process.env.BOOKRAG_E2E = JSON.stringify(env);

  return async () => {
    for (const child of children) {
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
    await new Promise<void>((resolve) => stub.close(() => resolve()));
    stub.closeAllConnections?.();
    if (!process.env.BOOKRAG_E2E_WORK) fs.rmSync(work, {recursive: true, force: true});
  };
}
