import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, run } from './helpers.js';

describe('rmq-diag events --pattern', () => {
  it('reads an application log in the layout the user names, per glob', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rmq-cli-pattern-'));
    try {
      const app = join(dir, 'app.log');
      writeFileSync(
        app,
        '2024-05-20 14:03:11.483 | main | WARN | c.e.Sender | send failed\n' +
          'org.apache.rocketmq.remoting.exception.RemotingTimeoutException: wait response on the channel <10.0.0.1:10911> timeout, 3000(ms)\n',
      );
      const without = ndjson((await run(['events', app, '--json'])).stdout).filter((e) => e.type && e.type !== 'summary');
      const r = await run(['events', app, '--json', '--pattern', '*.log=%d{yyyy-MM-dd HH:mm:ss.SSS} | %t | %p | %c | %m%n']);
      expect(r.code).toBe(0);
      const events = ndjson(r.stdout).filter((e) => e.type && e.type !== 'summary');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'rpc-timeout', level: 'WARN', thread: 'main', logger: 'c.e.Sender', time: '2024-05-20T14:03:11.483+08:00' });
      // Without the pattern the line is still dated (fallback layout), but its fields are not read.
      expect(without[0]).toMatchObject({ type: 'rpc-timeout', thread: null, time: '2024-05-20T14:03:11.483+08:00' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with one line naming the converter it does not support', async () => {
    const r = await run(['events', 'nowhere.log', '--pattern', '%d %-5p (%F:%L) - %m%n']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/%F is not supported/);
    expect(r.stderr).not.toMatch(/\bat \S+ \(/);
  });
});
