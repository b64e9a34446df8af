import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ioCalls, parseIoCalls, parseVmRssBytes, residentBytes } from './host-usage';

// A pid no process can have (the kernel's pid_max is at most 2^22).
const NO_SUCH_PID = 2 ** 23;

describe('parseIoCalls', () => {
  it('reads syscr and syscw of /proc/PID/io', () => {
    const text = 'rchar: 6976\nwchar: 12\nsyscr: 10\nsyscw: 3\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n';
    expect(parseIoCalls(text)).toEqual({ reads: 10, writes: 3 });
  });

  it('refuses a text without both counts', () => {
    expect(parseIoCalls('rchar: 1\nsyscr: 10\n')).toBeUndefined();
    expect(parseIoCalls('')).toBeUndefined();
  });
});

describe('parseVmRssBytes', () => {
  it('reads VmRSS in units of 1,024 bytes', () => {
    expect(parseVmRssBytes('Name:\tnode\nVmHWM:\t  130000 kB\nVmRSS:\t  118456 kB\nRssAnon:\t 90000 kB\n')).toBe(118456 * 1024);
  });

  it('refuses a status without VmRSS (a kernel thread has none)', () => {
    expect(parseVmRssBytes('Name:\tkthreadd\nState:\tS (sleeping)\n')).toBeUndefined();
  });
});

describe('reading /proc', () => {
  it('gives this process its RSS and its system calls, and a missing process nothing', () => {
    expect(residentBytes(process.pid)).toBeGreaterThan(2 ** 20);
    const calls = ioCalls(process.pid);
    expect(calls?.reads).toBeGreaterThan(0);
    expect(residentBytes(NO_SUCH_PID)).toBeUndefined();
    expect(ioCalls(NO_SUCH_PID)).toBeUndefined();
    expect(ioCalls(NO_SUCH_PID, true)).toBeUndefined();
  });

  it("counts a live child's calls with its parent's, and keeps them there once it is reaped", async () => {
    // The child makes 1,000 write calls, says so, and waits until it is told to go.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "const fs=require('fs');const fd=fs.openSync('/dev/null','w');for(let i=0;i<1000;i++)fs.writeSync(fd,'x');process.stdout.write('done');process.stdin.once('data',()=>process.exit(0))",
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await once(child.stdout!, 'data');
    const childCalls = ioCalls(child.pid!)!;
    const own = ioCalls(process.pid)!;
    const withChildren = ioCalls(process.pid, true)!;
    expect(childCalls.writes).toBeGreaterThanOrEqual(1000);
    expect(withChildren.writes).toBeGreaterThanOrEqual(own.writes + childCalls.writes);

    child.stdin!.write('go');
    await once(child, 'exit');
    // Once the child is reaped, the kernel has added the child's counts to this process's own.
    expect(ioCalls(process.pid)!.writes).toBeGreaterThanOrEqual(own.writes + childCalls.writes);
  });
});
