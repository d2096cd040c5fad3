// Every operation the adapter answers, gathered from the operation modules.

import { PI_VERSION } from "../pi.mjs";
import { operations as kit } from "./kit.mjs";
import { operations as messages } from "./pi-messages.mjs";
import { operations as models } from "./pi-models.mjs";
import { operations as packages } from "./pi-packages.mjs";
import { operations as templates } from "./pi-templates.mjs";

export { PI_VERSION };

export const operations = { ...kit, ...messages, ...models, ...packages, ...templates };
