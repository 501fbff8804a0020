import { describeError } from "./core/index.ts";
import { runApp } from "./app.ts";

/** `npm start` (see app.ts). */
runApp().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Lilo stopped: ${describeError(err)}\n`);
    process.exit(1);
  },
);
