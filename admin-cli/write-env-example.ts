import { writeFileSync } from "node:fs";
import { renderEnvExample } from "../core/config/env-example.ts";

/** `npm run config:example`: writes `.env.example` from the configuration table (core/config/schema.ts). */
writeFileSync(new URL("../.env.example", import.meta.url), renderEnvExample());
process.stdout.write(".env.example written from core/config/schema.ts\n");
