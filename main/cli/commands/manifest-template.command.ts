/** `voicescope manifest-template`: an empty manifest to fill in (needs no workspace). */
import { EXIT, type StandaloneCommand } from '../command';

export const manifestTemplateCommand: StandaloneCommand = {
  name: 'manifest-template',
  help: `  manifest-template                         print an empty manifest to fill in`,
  workspace: false,
  run: async () => {
    const { manifestTemplate } = await import('../../import/manifest');
    process.stdout.write(manifestTemplate());
    return EXIT.ok;
  },
};
