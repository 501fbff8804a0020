// matrix-bot-sdk imports its crypto binding (@matrix-org/matrix-sdk-crypto-nodejs)
// at load time; the real package downloads a native binary from GitHub at
// install, which fails offline. Lilo does not use the SDK's crypto: her
// end-to-end encryption is adapters/matrix/crypto/ (the Matrix Rust crypto as
// WebAssembly, from npm). Using any of these names means the SDK's own crypto
// was enabled by mistake.
"use strict";
function unsupported() {
  throw new Error("matrix-bot-sdk's own crypto is not used by Lilo (see adapters/matrix/crypto/).");
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
