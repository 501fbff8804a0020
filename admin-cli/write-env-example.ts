import { writeFileSync } from "node:fs";
import { renderEnvExample } from "../core/index.ts";

/** `npm run config:example`: writes `.env.example` from the configuration table (core/foundation/config/schema.ts). */
writeFileSync(new URL("../.env.example", import.meta.url), renderEnvExample());
process.stdout.write(".env.example written from core/foundation/config/schema.ts\n");
