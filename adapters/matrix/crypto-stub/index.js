// Lilo runs Matrix without end-to-end encryption. matrix-bot-sdk imports these
// names at load time; using any of them means someone enabled encryption.
"use strict";
function unsupported() {
  throw new Error("End-to-end encrypted Matrix rooms are not supported by Lilo yet.");
}
class Unsupported {
  constructor() {
    unsupported();
  }
}
module.exports = new Proxy(
  {},
  {
    get(_t, name) {
      if (name === "__esModule") return false;
      if (typeof name === "symbol") return undefined;
      if (name === "StoreType" || name === "RoomSettings") return {};
      return Unsupported;
    },
  },
);
