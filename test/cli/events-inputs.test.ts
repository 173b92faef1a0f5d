import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, run } from './helpers.js';

function incident(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rmq-inputs-'));
  mkdirSync(join(dir, 'ns-1'), { recursive: true });
  mkdirSync(join(dir, 'app-1', 'logs', 'rocketmqlogs'), { recursive: true });
  writeFileSync(join(dir, 'ns-1', 'namesrv.log'), '2024-05-20 14:08:05 WARN NSScheduledThread1 - The broker channel expired, 192.168.1.10:10911 120000ms\n');
  writeFileSync(
    join(dir, 'app-1', 'logs', 'rocketmqlogs', 'rocketmq_client.log'),
    '2024-05-20 14:08:05,250 INFO RocketmqClient - new name server is chosen. OLD: 10.0.0.1:9876 , NEW: 10.0.0.2:9876. namesrvIndex = 4\r\n',
  );
  return dir;
}

describe('events: hosts, kinds and zones', () => {
  it('takes the host from the first folder below the input folder, and --host overrides it', async () => {
    const dir = incident();
    const a = ndjson((await run(['events', dir, '--json'])).stdout);
    expect(a.filter((e) => e.type !== 'summary').map((e) => e.host).sort()).toEqual(['app-1', 'ns-1']);
    const b = ndjson((await run(['events', dir, '--json', '--host', '**/namesrv.log=nameserver-a'])).stdout);
    expect(b.filter((e) => e.type !== 'summary').map((e) => e.host).sort()).toEqual(['app-1', 'nameserver-a']);
  });

  it('reads the client log in the default +08:00 and the server log at GMT+8; --tz moves only the client', async () => {
    const dir = incident();
    const byType = async (args: string[]) =>
      Object.fromEntries(ndjson((await run(['events', dir, '--json', '--tz-out', 'UTC', ...args])).stdout).filter((e) => e.type !== 'summary').map((e) => [e.type, e.time]));
    expect(await byType([])).toEqual({ 'broker-expired': '2024-05-20T06:08:05.000+00:00', 'namesrv-chosen': '2024-05-20T06:08:05.250+00:00' });
    expect(await byType(['--tz', 'UTC'])).toEqual({ 'broker-expired': '2024-05-20T06:08:05.000+00:00', 'namesrv-chosen': '2024-05-20T14:08:05.250+00:00' });
    // GLOB=ZONE forces a zone even on a layout that fixes one.
    expect((await byType(['--tz', 'namesrv.log=UTC']))['broker-expired']).toBe('2024-05-20T14:08:05.000+00:00');
  });

  it('says once which zone was assumed', async () => {
    const dir = incident();
    const r = await run(['events', dir]);
    expect(r.stdout.replace(/\n +/g, ' ').match(/read as \+08:00 \(default; --tz to change\)/g)).toHaveLength(1);
    expect((await run(['events', dir, '--tz', '+08:00'])).stdout).not.toMatch(/default; --tz to change/);
  });

  it('--kind forces the kind of matching files', async () => {
    const dir = incident();
    const r = ndjson((await run(['events', dir, '--json', '--kind', '**/namesrv.log=broker'])).stdout);
    const summary = r.pop()!.summary;
    expect(summary.inputs.find((i: any) => i.path.endsWith('namesrv.log')).kind).toBe('broker');
  });
});
