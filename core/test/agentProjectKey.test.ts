import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { normaliseRemote, projectKeyOf, projectKeyOfRoots } from '../src/agents/project/projectKey.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-project-')));
  dirs.push(dir);
  return dir;
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

describe('project key from the repository', () => {
  it('normalises remotes: scp-style, https with user and port, ssh://, .git and case', () => {
    expect(normaliseRemote('git@github.com:Ada/Ledgerd.git')).toBe('github.com/ada/ledgerd');
    expect(normaliseRemote('https://ada@GitHub.com/ada/ledgerd')).toBe('github.com/ada/ledgerd');
    expect(normaliseRemote('https://github.com/ada/ledgerd.git/')).toBe('github.com/ada/ledgerd');
    expect(normaliseRemote('ssh://git@gitlab.example.com:2222/team/app.git')).toBe('gitlab.example.com/team/app');
    expect(normaliseRemote('/srv/git/app.git')).toBe('/srv/git/app');
  });

  it('gives a clone, a linked worktree and a sub-folder the same key; a repository without a remote its main folder; no repository none', async () => {
    const base = temp();
    const main = path.join(base, 'main');
    fs.mkdirSync(main);
    git(main, 'init', '-q');
    git(main, 'remote', 'add', 'origin', 'git@github.com:Ada/Ledgerd.git');
    fs.writeFileSync(path.join(main, 'a.txt'), 'a');
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'a');
    git(main, 'worktree', 'add', '-q', path.join(base, 'wt'));
    const clone = path.join(base, 'clone');
    git(base, 'clone', '-q', main, clone);
    git(clone, 'remote', 'set-url', 'origin', 'https://github.com/ada/ledgerd.git');
    fs.mkdirSync(path.join(main, 'src', 'deep'), { recursive: true });

    for (const dir of [main, path.join(base, 'wt'), clone, path.join(main, 'src', 'deep')]) expect(projectKeyOf(dir), dir).toBe('github.com/ada/ledgerd');
    expect(await projectKeyOfRoots(['https://example.com/x', pathToFileURL(path.join(base, 'wt')).href])).toBe('github.com/ada/ledgerd');

    const local = path.join(base, 'local');
    fs.mkdirSync(local);
    git(local, 'init', '-q');
    git(local, 'commit', '-q', '--allow-empty', '-m', 'x');
    git(local, 'worktree', 'add', '-q', path.join(base, 'local-wt'));
    expect(projectKeyOf(local)).toBe(local);
    expect(projectKeyOf(path.join(base, 'local-wt'))).toBe(local);
    expect(projectKeyOf(temp())).toBeNull();
  });
});
