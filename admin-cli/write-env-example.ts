import { writeFileSync } from "node:fs";
import { renderEnvExample } from "../core/internal.ts";
import { ADAPTER_SECTIONS } from "../adapters/config.ts";

/** `npm run config:example`: writes `.env.example` from the configuration table (core/foundation/config/schema.ts) and the adapters' sections. */
writeFileSync(new URL("../.env.example", import.meta.url), renderEnvExample(ADAPTER_SECTIONS));
process.stdout.write(".env.example written from core/foundation/config/schema.ts and adapters/*/config.ts\n");
