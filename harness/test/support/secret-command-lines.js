// @ts-check
// Command lines that carry a secret in each of the forms programs take one, for the tests that start processes with them beside
// dyno: each form with a secret of its own, which no file and no output of dyno may hold.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** @type {{ form: string, argv: string[], secret: string }[]} */
export const SECRET_FORMS = [
  { form: 'mysql -p<password>', argv: ['mysql', '-pHunter2Secret', 'db'], secret: 'Hunter2Secret' },
  { form: 'an Authorization header', argv: ['curl', '-H', 'Authorization: Bearer BearerTok3n9'], secret: 'BearerTok3n9' },
  { form: 'a URL password holding @', argv: ['psql', 'postgres://u:p@ssW0rd@h/db'], secret: 'ssW0rd' },
  { form: 'a ?key= query', argv: ['curl', 'https://api.x/v1?key=QueryK3ySecret'], secret: 'QueryK3ySecret' },
  { form: 'an X-Amz-Signature', argv: ['curl', 'https://s3.x/o?X-Amz-Signature=AmzS1gSecret'], secret: 'AmzS1gSecret' },
  { form: 'curl -u user:password', argv: ['curl', '-u', 'admin:CurlPwSecret6'], secret: 'CurlPwSecret6' },
  { form: 'a token as a URL\'s user', argv: ['git', 'clone', 'https://ghp_GhT0kenSecret7@github.com/o/r'], secret: 'GhT0kenSecret7' },
  { form: '--passphrase', argv: ['gpg', '--passphrase', 'PassphraseSecret8'], secret: 'PassphraseSecret8' },
  { form: '--private-key=', argv: ['tool', '--private-key=PrivKeySecret9'], secret: 'PrivKeySecret9' },
  { form: 'redis-cli -a', argv: ['redis-cli', '-a', 'RedisPwSecret10'], secret: 'RedisPwSecret10' },
  { form: '--cookie session=', argv: ['curl', '--cookie', 'session=CookieSecret11'], secret: 'CookieSecret11' },
  { form: 'password: x', argv: ['tool', 'password: LabelPwSecret12'], secret: 'LabelPwSecret12' },
  { form: 'sshpass -p', argv: ['sshpass', '-p', 'SshpassSecret13', 'ssh', 'host'], secret: 'SshpassSecret13' },
  { form: '-pMyPass db', argv: ['mysql', '-pMyPassSecret14', 'db'], secret: 'MyPassSecret14' }
]

/**
 * A Node process whose command line carries `argv` after its script (`node -e <script> -- …argv`), started by a shell that exits at
 * once so that it is nobody's child here (a process dyno's own process started counts as dyno's), pinned to `cpu` when given, as
 * the user and group of id `uid` when given (root only), under the name `argv0` when given (as a program that sets its own title,
 * its command line then begins with it). busy: it spins for 60 s; else it sleeps as long.
 * @param {string[]} argv @param {{ busy: boolean, cpu?: number, uid?: number, argv0?: string }} options
 * @returns {Promise<number>} its pid (taskset, setpriv and bash exec what they start)
 */
export function startCarrying (argv, { busy, cpu, uid, argv0 }) {
  const script = busy ? 'for(const e=Date.now()+6e4;Date.now()<e;);' : 'setTimeout(()=>0,6e4)'
  const prefix = [
    ...(uid === undefined ? [] : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups']),
    ...(cpu === undefined ? [] : ['taskset', '-c', String(cpu)]),
    ...(argv0 === undefined ? [] : ['bash', '-c', 'exec -a "$0" "$@"', argv0])
  ]
  const words = [...prefix, process.execPath, '-e', script, '--', ...argv]
  return new Promise((resolve, reject) => {
    const shell = spawn('sh', ['-c', '"$@" >/dev/null 2>&1 & echo $!', 'sh', ...words], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    shell.stdout.on('data', (chunk) => { out += chunk })
    shell.on('close', (code) => code === 0 ? resolve(Number(out.trim())) : reject(new Error(`could not start ${words.join(' ')}`)))
  })
}

/**
 * Kills them, and waits until each is gone (or a zombie its new parent has not reaped yet: dead).
 * @param {number[]} pids emptied
 * @returns {Promise<number[]>} those still alive after 5 s
 */
export async function stopAll (pids) {
  const stopping = pids.splice(0)
  for (const pid of stopping) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // ended by itself
    }
  }
  const alive = () => stopping.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0] !== 'Z'
    } catch {
      return false
    }
  })
  for (let tries = 0; tries < 100 && alive().length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50))
  return alive()
}
