/**
 * The contract's own rules: each contract file declares the procedures of its namespace and no other
 * (queue.* in queue.contract.ts, audit.* in audit.contract.ts, ...), and main/rpc/handlers has one
 * handlers file for each (queue.handlers.ts, ...); every procedure is a read or an
 * action, and every action says what it affects (or explicitly nothing), in names the contract knows;
 * each kind of engine event says what it refreshes. The renderer derives its refreshes from these
 * declarations, so a missing one would be a stale screen.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectsOf, isAction, procedures, type Method } from '../../../shared/contract';
import { ENGINE_EVENT_AFFECTS } from '../../../shared/contract/events.contract';
import { METHOD_NAMES } from '../../../shared/contract/method-names';
import { EngineEventSchema } from '../../../shared/contract/views';

const dir = join(__dirname, '../../../shared/contract');
const handlersDir = join(__dirname, '../../../main/rpc/handlers');
const contractFiles = readdirSync(dir).filter((f) => f.endsWith('.contract.ts'));

const isProcedure = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && 'input' in v && 'output' in v;

/** Method names each contract file declares (its exported `...Contract` objects of procedures). */
const declaredIn = async (file: string): Promise<string[]> => {
  const mod = (await import(join(dir, file))) as Record<string, unknown>;
  return Object.entries(mod)
    .filter(([name, v]) => name.endsWith('Contract') && typeof v === 'object' && v !== null)
    .flatMap(([, v]) => Object.entries(v as Record<string, unknown>))
    .filter(([, p]) => isProcedure(p))
    .map(([m]) => m);
};

const namespaceOf = (method: string) => method.slice(0, method.indexOf('.'));
/** `recording-detail.contract.ts` → `recordingDetail`. */
const namespaceOfFile = (file: string) =>
  file.replace(/\.contract\.ts$/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** A method named for what it does (a verb) changes something; one named for what it returns is a read. */
const ACTION_VERB =
  /^(create|update|delete|archive|rename|set|link|save|start|pause|resume|cancel|retry|insist|resolve|use|test|replace|remove|pick|preview|discard|commit|run|read|reassign|exclude|restore|undo|send|merge|dismiss)(?=[A-Z]|$)/;

describe('each contract file holds its namespace', () => {
  it('finds the contract files', () => {
    expect(contractFiles.length).toBeGreaterThan(10);
    for (const f of ['queue.contract.ts', 'audit.contract.ts', 'sandbox.contract.ts'])
      expect(contractFiles).toContain(f);
  });

  it.each(contractFiles)('%s declares only procedures of its own namespace', async (file) => {
    const own = namespaceOfFile(file);
    const elsewhere = (await declaredIn(file)).filter((m) => namespaceOf(m) !== own).sort();
    expect(elsewhere).toEqual([]);
  });

  it('each contract file has its handlers file of the same name in main/rpc/handlers, and no other', () => {
    const handlerFiles = readdirSync(handlersDir)
      .filter((f) => f.endsWith('.handlers.ts'))
      .map((f) => f.replace(/\.handlers\.ts$/, ''));
    const contracts = contractFiles
      .map((f) => f.replace(/\.contract\.ts$/, ''))
      .filter((n) => n !== 'events');
    expect(handlerFiles.sort()).toEqual(contracts.sort());
  });

  it('queue.*, audit.* and sandbox.* are declared in their own files', async () => {
    expect((await declaredIn('queue.contract.ts')).sort()).toEqual([
      'queue.pause',
      'queue.resume',
      'queue.state',
    ]);
    expect((await declaredIn('audit.contract.ts')).sort()).toEqual(['audit.list', 'audit.verify']);
    expect((await declaredIn('sandbox.contract.ts')).sort()).toEqual([
      'sandbox.setMisbehaviours',
      'sandbox.setScenario',
      'sandbox.state',
    ]);
  });

  it('every procedure is declared in exactly one file, and the method list the preload uses is the contract', async () => {
    const all = (await Promise.all(contractFiles.map(declaredIn))).flat().sort();
    expect(all).toEqual(Object.keys(procedures).sort());
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(procedures).sort());
  });
});

describe('every action declares what it affects', () => {
  const methods = Object.keys(procedures) as Method[];
  const known = new Set<string>([...methods, ...methods.map(namespaceOf)]);

  it.each(methods)('%s: a read, or an action that says what it changes', (m) => {
    const verb = m.slice(m.indexOf('.') + 1);
    expect(isAction(m)).toBe(ACTION_VERB.test(verb));
    if (isAction(m)) expect(Array.isArray(procedures[m].affects)).toBe(true);
    else expect(affectsOf(m)).toEqual([]);
  });

  it('names only procedures and namespaces of the contract', () => {
    for (const m of methods) for (const t of affectsOf(m)) expect(known, `${m} affects ${t}`).toContain(t);
  });

  it('each kind of engine event says what it refreshes, in names the contract knows', () => {
    const kinds = EngineEventSchema.options.map((o) => o.shape.type.value).sort();
    expect(Object.keys(ENGINE_EVENT_AFFECTS).sort()).toEqual(kinds);
    for (const [kind, affected] of Object.entries(ENGINE_EVENT_AFFECTS))
      for (const t of affected) expect(known, `${kind} refreshes ${t}`).toContain(t);
  });
});
