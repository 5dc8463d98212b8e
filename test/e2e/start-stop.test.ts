import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { freePort, repoRoot, spawnNode, tempDir } from './support.js';

const MAIN = join(repoRoot, 'hosts/api/src/main.ts');
const GRACE_MS = 2000;

/** Whether nothing holds the loopback port: a connection is refused and a listen succeeds. */
const portIsFree = async (port: number): Promise<boolean> => {
  const refused = await new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(true));
  });
  if (!refused) return false;
  return new Promise<boolean>((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
};

const until = async (check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

const ready = (port: number) => async () => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
  } catch {
    return false;
  }
};

// The two `npm start` tests run one after the other: each builds first, into the same dist/.
test.serial('npm start: SIGTERM to the npm process stops the host and frees its HTTP and SMTP ports within the grace period', async (t) => {
  // `npm start` builds first (prestart): on two busy cores that alone can take a few minutes.
  t.timeout(360_000);
  const { dir, cleanup } = tempDir('ephemail-start-stop');
  t.teardown(cleanup);
  const [port, smtpPort] = [await freePort(), await freePort()];
  const env = { PORT: String(port), SMTP_PORT: String(smtpPort), DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: String(GRACE_MS) };
  // Its own process group, so a failed run can still take down whatever npm left behind.
  const npm = spawn('npm', ['start'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  t.teardown(() => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  npm.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => npm.on('exit', (code) => done(code)));

  t.true(await until(async () => npm.exitCode === null && (await ready(port)()), 300_000), `the host never became ready:\n${output}`);
  t.false(await portIsFree(smtpPort), 'the SMTP server listens');

  npm.kill('SIGTERM');
  const freed = await until(async () => (await portIsFree(port)) && (await portIsFree(smtpPort)), GRACE_MS + 3000);
  t.true(freed, `ports ${port}/${smtpPort} still held after SIGTERM:\n${output}`);
  t.is(await exited, 0, output);
});

test('host: a start that finds its development key writes only JSON lines on stdout, through SIGTERM', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-json-lines');
  t.teardown(cleanup);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'info', EPHEMAIL_MODE: 'development' };
  // The first start also prints the new development key for a person to copy (host-restart
  // checks that notice); the second, which finds the key, is the start every later run makes.
  const first = spawnNode(MAIN, [], env);
  t.teardown(() => first.child.kill('SIGKILL'));
  await first.waitFor(/"msg":"listening"/);
  first.child.kill('SIGTERM');
  t.is(await first.exited, 0);

  const host = spawnNode(MAIN, [], env);
  t.teardown(() => host.child.kill('SIGKILL'));
  await host.waitFor(/"msg":"listening"/);
  host.child.kill('SIGTERM');
  t.is(await host.exited, 0);

  const lines = host.output().stdout.split('\n').filter((line) => line.length > 0);
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as { msg?: string; signal?: string; service?: string };
    } catch {
      return t.fail(`not a JSON line: ${line}`);
    }
  });
  t.true(parsed.every((line) => line?.service === 'ephemail'), 'every line is one of the host logger');
  const messages = parsed.map((line) => line?.msg ?? '');
  t.true(messages.some((msg) => /was printed at first start/.test(msg)), 'the start notice is a log line');
  t.true(parsed.some((line) => line?.signal === 'SIGTERM' && line.msg === 'stopping…'), 'the shutdown notice is a log line');
  t.is(messages.at(-1), 'stopped');
});

test.serial('npm start: Ctrl-C (SIGINT to the terminal\u2019s process group) says stopping… then stopped, and npm exits 0', async (t) => {
  t.timeout(360_000);
  const { dir, cleanup } = tempDir('ephemail-ctrl-c');
  t.teardown(cleanup);
  const env = { PORT: '0', SMTP_PORT: '0', DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'info' };
  // A process group of its own, as a terminal's foreground job is: Ctrl-C signals every member.
  const npm = spawn('npm', ['start'], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  t.teardown(() => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  });
  let stdout = '';
  npm.stdout.on('data', (chunk) => (stdout += chunk));
  npm.stderr.on('data', () => undefined);
  const exited = new Promise<number | null>((done) => npm.on('exit', (code) => done(code)));
  t.true(await until(async () => npm.exitCode === null && stdout.includes('"msg":"listening"'), 300_000), `the host never became ready:\n${stdout}`);

  process.kill(-npm.pid!, 'SIGINT');
  t.is(await exited, 0, stdout);
  const messages = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { msg: string }).msg);
  t.deepEqual(messages.slice(-2), ['stopping…', 'stopped']);
});

test('host: SIGINT, sent twice as npm forwards a Ctrl-C, stops the host once: stopping…, stopped, exit 0', async (t) => {
  const { dir, cleanup } = tempDir('ephemail-sigint');
  t.teardown(cleanup);
  const host = spawnNode(MAIN, [], { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, PORT: '0', SMTP_PORT: '0', LOG_LEVEL: 'warn', EPHEMAIL_MODE: 'development' });
  t.teardown(() => host.child.kill('SIGKILL'));
  await host.waitFor(/ephemail is running on/);
  host.child.kill('SIGINT');
  host.child.kill('SIGINT');
  t.is(await host.exited, 0, host.output().stdout);
  const messages = host.output().stdout.split('\n').filter((line) => line.length > 0).map((line) => (JSON.parse(line) as { msg: string }).msg);
  // LOG_LEVEL=warn hides the host's other lines, not that it heard the signal and stopped.
  t.deepEqual(messages, ['stopping…', 'stopped']);
});
