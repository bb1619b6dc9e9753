/** `voicescope attributes`: participants' researcher-defined attributes (arm, site, …): list, set, import a CSV. */
import { readFileSync } from 'node:fs';
import { attributeKey, attributeValue } from '../../../shared/contract/cohort.contract';
import { EXIT, need, UsageError, type WorkspaceCommand } from '../command';
import { resolveStudy } from '../lookup';

export const attributesCommand: WorkspaceCommand = {
  name: 'attributes',
  help: `  attributes --study <name|id> [--csv <file>] [--participant <code> <key>=<value>…]
                                            participants' attributes (arm, site, any key): list them,
                                            import a CSV (participant_code,<attribute>,…; empty cells
                                            leave a value as it is), or set one participant's
                                            (<key>= with no value removes the key)`,
  run: async ({ svc, out, values: v, sub, rest }) => {
    const study = await resolveStudy(svc, v.study);
    if (v.csv !== undefined) {
      const r = await svc.importAttributes(study.id, readFileSync(v.csv, 'utf8'));
      if (!r.ok) {
        out.problem(r.error.message, r.error.action);
        return EXIT.refused;
      }
      const x = r.value;
      out.say(
        'attributes-import',
        [
          `Set ${x.keys.join(', ')} for ${x.applied} participant${x.applied === 1 ? '' : 's'}.`,
          ...(x.unknownCodes.length
            ? [`Not participants of this study (left out): ${x.unknownCodes.join(', ')}.`]
            : []),
          ...x.problems,
        ].join('\n'),
        { report: x },
      );
      return x.unknownCodes.length || x.problems.length ? EXIT.refused : EXIT.ok;
    }
    const all = (await svc.attributes(study.id))!;
    if (v.participant?.length) {
      const code = need(v.participant[0], 'participant');
      const p = all.participants.find((x) => x.code === code);
      if (!p) throw new UsageError(`There is no participant ${code} in this study.`);
      const words = [sub, ...rest].filter((w): w is string => w !== undefined);
      if (words.length === 0) throw new UsageError('Name what to set, e.g. arm=placebo site=Berlin.');
      const changes = words.map((w) => {
        const at = w.indexOf('=');
        if (at < 1) throw new UsageError(`"${w}" is not <key>=<value>.`);
        const key = attributeKey().safeParse(w.slice(0, at));
        const value = attributeValue().safeParse(w.slice(at + 1));
        if (!key.success || !value.success)
          throw new UsageError(
            `"${w}": keys are 1 to 64 characters and values at most 200, without control characters.`,
          );
        return { key: key.data, value: value.data === '' ? null : value.data };
      });
      const now = (await svc.setAttributes(p.participantId, changes))!;
      out.say(
        'attributes',
        `${code}: ${
          Object.entries(now)
            .map(([k, x]) => `${k}=${x}`)
            .join(', ') || 'no attributes'
        }.`,
        { participant: code, attributes: now },
      );
      return EXIT.ok;
    }
    out.say(
      'attributes',
      all.keys.length === 0
        ? 'No attributes yet. Import a CSV with --csv, or set some with --participant <code> arm=… site=….'
        : all.participants
            .map(
              (p) => `${p.code}\t${all.keys.map((k) => `${k.key}=${p.attributes[k.key] ?? ''}`).join('\t')}`,
            )
            .join('\n'),
      { attributes: all },
    );
    return EXIT.ok;
  },
};
