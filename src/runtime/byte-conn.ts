/**
 * Byte-stream connections for the messaging gateway's signal-cli backends
 * (signal-cli-jsonrpc(5)): a UNIX socket (`daemon --socket PATH`), a TCP
 * socket (`daemon --tcp HOST:PORT`) or a child process speaking on its
 * stdin/stdout (`signal-cli jsonRpc`). Node and Deno get the same shape; the
 * gateway itself only sees Web streams (STYLE rule 5).
 */
// deno-lint-ignore no-explicit-any
const g = globalThis as any;
const isDeno: boolean = typeof g.Deno?.version?.deno === "string";

/** One open byte stream: read the peer's bytes, write ours, close (a child process is terminated). */
export interface ByteConn {
  readable: ReadableStream<Uint8Array>;
  write(bytes: Uint8Array): Promise<void>;
  close(): void;
}

/** Connects to a UNIX domain socket. */
export async function connectUnix(path: string): Promise<ByteConn> {
  if (isDeno) return denoConn(await g.Deno.connect({ transport: "unix", path }));
  const net = await import("node:net");
  return await nodeSocket(() => net.createConnection({ path }));
}

/** Connects to a TCP host and port. */
export async function connectTcp(hostname: string, port: number): Promise<ByteConn> {
  if (isDeno) return denoConn(await g.Deno.connect({ hostname, port }));
  const net = await import("node:net");
  return await nodeSocket(() => net.createConnection({ host: hostname, port }));
}

/** Starts `command args…` with piped stdin/stdout (stderr goes to ours: signal-cli logs there). */
export async function spawnStdio(command: string, args: string[]): Promise<ByteConn> {
  if (isDeno) {
    const child = new g.Deno.Command(command, { args, stdin: "piped", stdout: "piped", stderr: "inherit" }).spawn();
    const writer = child.stdin.getWriter();
    return {
      readable: child.stdout,
      write: (b) => writer.write(b),
      close: () => {
        writer.close().catch(() => {});
        try {
          child.kill("SIGTERM");
        } catch {
          // already exited
        }
      },
    };
  }
  const { spawn } = await import("node:child_process");
  const { Readable } = await import("node:stream");
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  child.stdin!.on("error", () => {}); // a dead child surfaces as the end of stdout
  return {
    readable: Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>,
    write: (b) => new Promise<void>((resolve, reject) => child.stdin!.write(b, (e) => (e ? reject(e) : resolve()))),
    close: () => {
      child.stdin!.end();
      child.kill("SIGTERM");
    },
  };
}

// deno-lint-ignore no-explicit-any
function denoConn(conn: any): ByteConn {
  const writer = conn.writable.getWriter();
  return {
    readable: conn.readable,
    write: (b) => writer.write(b),
    close: () => {
      try {
        conn.close();
      } catch {
        // already closed
      }
    },
  };
}

// deno-lint-ignore no-explicit-any
async function nodeSocket(connect: () => any): Promise<ByteConn> {
  const { Readable } = await import("node:stream");
  // Created only now, with the listeners attached at once: a local socket can connect before the next await resolves.
  const sock = connect();
  await new Promise<void>((resolve, reject) => {
    sock.once("connect", () => resolve());
    sock.once("error", reject);
  });
  sock.on("error", () => {}); // a reset surfaces as the end of the readable side
  return {
    readable: Readable.toWeb(sock) as unknown as ReadableStream<Uint8Array>,
    write: (b) => new Promise<void>((resolve, reject) => sock.write(b, (e?: Error) => (e ? reject(e) : resolve()))),
    close: () => sock.destroy(),
  };
}
