// @ts-check
// A host is where dyno starts a process: this machine (local/), or one reached over SSH (ssh/); each kind is a folder, listed
// in host-kinds.js. Starting a process group, stopping it, reading its CPU and memory, and the address a load generator reaches
// it at all go through one; the layers above ask a host what it shares with this machine and never which kind it is.

/**
 * @typedef {object} SpawnSpec
 * @property {string} command
 * @property {string[]} args
 * @property {string} cwd a directory of this checkout (a host with a checkout of its own maps it to its own)
 * @property {Record<string, string>} env added to the environment the host gives its processes
 * @property {string[]} [unsetEnv] taken out of it
 * @property {string} label what the process is, in messages (`SUT fastify`)
 * @property {string} [stdinText] written to its standard input, which then ends (none: it reads nothing)
 * @property {number} [uid] run as this user (PostgreSQL refuses root)
 * @property {number} [gid]
 *
 * @typedef {object} HostProcess a process started as the leader of its own group on a host
 * @property {number} pid on its host; also its group's id
 * @property {import('node:stream').Readable} stdout
 * @property {import('node:stream').Readable} stderr
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited
 * @property {() => boolean} hasExited
 * @property {(graceMs: number) => Promise<{ forced: boolean }>} stop SIGTERM to the group, SIGKILL after graceMs; nothing of it left
 * @property {(() => import('../process/proc-reader.js').ProcStat[]) | null} readGroup the group's processes as last read on its
 *   host; null: read /proc here
 * @property {() => string | null} lostReason why the process's host can no longer be reached, when it cannot
 *
 * @typedef {object} Host
 * @property {string} name `local`, or the URL the host was named by (`ssh://…`)
 * @property {boolean} sharesFilesystem this machine's files are its files: a path here is the same file there, and what its
 *   processes write is read here
 * @property {boolean} sharesNetwork it is reached on this machine's loopback, and reaches what listens there
 * @property {boolean} sharesProcesses its processes are this machine's: /proc here reads them, they inherit this process's
 *   environment and share these cpus; it is this machine, with this machine's fingerprint
 * @property {string} address where a client on the load host reaches what listens on this host
 * @property {string} listenAddress what a server on this host binds to
 * @property {string} addressOfThisMachine where connections from this machine come from, as the host sees them
 * @property {(spec: SpawnSpec) => Promise<HostProcess>} spawnGroup
 * @property {(command: string, args: string[]) => { command: string, args: string[] }} launchOn a launch of this checkout as the host
 *   runs it (its node, its checkout's paths)
 * @property {(count: number) => Promise<number[]>} freePorts TCP ports free on the host's listenAddress just now
 * @property {import('../pinning/resolve-pinning.js').Machine} machine what pinning on the host depends on
 * @property {(target: { address: string, port: number, to: string, method: keyof typeof import('./link-rtt.js').RTT_METHODS }) =>
 *   Promise<import('./link-rtt.js').LinkRtt>} measureRtt the round trip from this host to a server (link-rtt.js), measured on this
 *   host: `http` where the server speaks HTTP/1.1 in cleartext, `tcp` elsewhere
 * @property {(name: string) => string | null} which where the host has an executable (a remote host: the few dyno asks about)
 * @property {HostDescription} description recorded in the results
 *
 * @typedef {object} HostTarget a host as the user named it, parsed by its kind
 * @property {string} kind the name of its kind (host-kinds.js)
 * @property {string} url as given, normalised: `local`, `ssh://user@host:port/dir`
 *
 * @typedef {object} HostKind one kind of host: a folder under hosts/, listed in host-kinds.js
 * @property {string} name
 * @property {string} form how a user names a host of this kind, for messages (`local` (this machine))
 * @property {(text: string) => boolean} names whether `text` names a host of this kind (its scheme)
 * @property {(text: string, flag: string) => HostTarget} parse the named host, or a DYNO_ERR_INVALID_OPTION naming `flag`, the value and
 *   the form
 * @property {(target: HostTarget, role: 'sut' | 'load') => Promise<Host>} connect the host, reached and checked, ready to start processes
 * @property {((target: HostTarget, onLine: (line: string) => void) => Promise<{ commit: string, dir: string, lacks: string[] }>) | null}
 *   prepare what `dyno host prepare` does for a host of this kind (a checkout of dyno there); null: nothing to prepare
 *
 * @typedef {object} HostDescription
 * @property {string} name
 * @property {string} role `sut` or `load`
 * @property {string} address
 * @property {Record<string, unknown>} fingerprint as env/fingerprint.js takes it, on that host
 */

export {}
