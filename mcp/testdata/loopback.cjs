// Preloaded (node --require) into the reference servers that the tests of
// package mcp start over HTTP. Those servers listen on PORT on every
// interface; this makes a listen on a bare port listen on 127.0.0.1 only,
// so the tests stay on loopback.
"use strict";
const net = require("net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  const bare = typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port));
  if (bare && (args.length === 1 || typeof args[1] === "function")) {
    args.splice(1, 0, "127.0.0.1");
  }
  return listen.apply(this, args);
};
