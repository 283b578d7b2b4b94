// Preloaded with `node --require` for the tests: a server that listens on a bare port
// (`app.listen(PORT)`) listens on 127.0.0.1 only. The server itself runs unchanged.
"use strict";
const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  const bare = typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first));
  if (bare && typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  if (first && typeof first === "object" && !first.path && first.host === undefined) first.host = "127.0.0.1";
  return listen.apply(this, args);
};
