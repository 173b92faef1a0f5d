// The decision of what an output may be (src/ingest/output-safety.ts), on real files, FIFOs, a
// socket and devices; the commands' use of it is test/cli/output-safety.test.ts.
import { spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRefusal, folderRefusal, OutputRefused, runInputs, writeOutputFile } from '../../src/ingest/output-safety.js';

const dir = mkdtempSync(join(tmpdir(), 'rmq-diag-outputs-'));
const inc = join(dir, 'inc');
const log = join(inc, 'h', 'broker.log');
let server: Server;

beforeAll(async () => {
  mkdirSync(join(inc, 'h'), { recursive: true });
  writeFileSync(log, 'a line\n');
  expect(spawnSync('mkfifo', [join(dir, 'fifo')]).status).toBe(0);
  server = createServer();
  await new Promise<void>((r) => server.listen(join(dir, 'sock'), r));
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('fileRefusal', () => {
  const named = () => runInputs([inc]);
  const read = () => runInputs([join(dir, 'inc', 'h', '*.log')], [log]);

  it('a new file beside the inputs, an existing one, and /dev/null are written', () => {
    expect(fileRefusal(join(dir, 'report.txt'), named())).toBeNull();
    writeFileSync(join(dir, 'old.txt'), 'x');
    expect(fileRefusal(join(dir, 'old.txt'), named())).toBeNull();
    expect(fileRefusal('/dev/null', named())).toBeNull();
  });

  it('FIFOs, sockets and character devices other than /dev/null are not', () => {
    expect(fileRefusal(join(dir, 'fifo'), named())).toMatch(/^a FIFO \(named pipe\)/);
    expect(fileRefusal(join(dir, 'sock'), named())).toMatch(/^a socket/);
    expect(fileRefusal('/dev/zero', named())).toMatch(/^a character device/);
  });

  it('an input by device and inode, through links; a folder', () => {
    linkSync(log, join(dir, 'hard'));
    symlinkSync(log, join(dir, 'soft'));
    for (const p of [log, join(dir, 'hard'), join(dir, 'soft')]) expect(fileRefusal(p, read()), p).toBe(`an input of this run is never written over (${log})`);
    expect(fileRefusal(dir, read())).toBe('a folder; name the file to write');
    expect(fileRefusal(`${join(dir, 'new')}/`, read())).toBe('a folder; name the file to write');
  });

  it('inside an input folder, new files too, and through a dangling symbolic link that lands there', () => {
    expect(fileRefusal(join(inc, 'h', 'new.txt'), named())).toBe(`inside the input folder ${inc}, which is never written into`);
    expect(fileRefusal(join(inc, 'no', 'such', 'folder.txt'), named())).toMatch(/^inside the input folder/);
    symlinkSync(join(inc, 'h', 'later.txt'), join(dir, 'dangling'));
    expect(fileRefusal(join(dir, 'dangling'), named())).toBe(`inside the input folder ${inc}, which is never written into`);
  });
});

describe('folderRefusal', () => {
  it('inside, equal to or above an input folder; holding an input file; not a folder', () => {
    const named = runInputs([inc]);
    expect(folderRefusal(inc, named)).toMatch(/^inside the input folder/);
    expect(folderRefusal(join(inc, 'sim'), named)).toMatch(/^inside the input folder/);
    expect(folderRefusal(dir, named)).toBe(`holds the input folder ${inc}: give a folder outside the inputs`);
    const read = runInputs([], [log]);
    expect(folderRefusal(join(inc, 'h'), read)).toBe(`holds an input of this run (${log}): give a folder outside the inputs`);
    expect(folderRefusal(join(dir, 'sim'), read)).toBeNull();
    expect(folderRefusal(log, runInputs([]))).toBe('not a folder');
    expect(folderRefusal(join(dir, 'fifo'), runInputs([]))).toMatch(/^a FIFO/);
  });
});

describe('writeOutputFile', () => {
  it('replaces a file as > does, and leaves an input as it was', () => {
    const out = join(dir, 'out.txt');
    writeFileSync(out, 'a longer old text\n');
    writeOutputFile(out, 'new\n', runInputs([inc]));
    expect(readFileSync(out, 'utf8')).toBe('new\n');
    expect(() => writeOutputFile(join(dir, 'hard2'), 'x', runInputs([], [log]))).not.toThrow();
    linkSync(log, join(dir, 'hard3'));
    expect(() => writeOutputFile(join(dir, 'hard3'), 'x', runInputs([], [log]))).toThrow(OutputRefused);
    expect(readFileSync(log, 'utf8')).toBe('a line\n');
  });

  // A FIFO is tried in a child process only (test/cli/output-safety.test.ts): in this one, an open
  // that waited for a reader would stop the whole suite, not fail a test.
});
