// `node --import ./record-modules.mjs ...`: at exit, writes the URL of every module the process
// loaded to the file $PACKET_KIT_MODULES_FILE, one a line. For tests of what a command loads.
import { writeFileSync } from 'node:fs';
import module from 'node:module';

const loaded = [];
module.registerHooks({
  load(url, context, next) {
    loaded.push(url);
    return next(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.PACKET_KIT_MODULES_FILE, loaded.join('\n') + '\n'));
