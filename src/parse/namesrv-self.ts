// Where a NameServer's own log names the NameServer's own address: what places a NameServer on its
// host for the routing rules (src/rules/routing.ts) and for inference (src/diagnosis/infer/hosts.ts).
// - Its boot line, `The Name Server boot success. serializeType=JSON, address ip:port` (5.3.3 on;
//   before that no address), unless it is bound to every interface (`0.0.0.0`, `::`).
// - From 5.0.0 a NameServer runs a remoting client of its own, pointed at itself as it starts:
//   NamesrvController.start calls remotingClient.updateNameServerAddressList with
//   NetworkUtil.getLocalAddress() + ":" + listenPort, and NettyRemotingClient logs
//   `name server address updated. NEW : [ip:port] , OLD: null` in namesrv.log (main thread). That IP
//   is the one NetworkUtil picks among the host's interfaces: on a host with several it may not be
//   the one clients use, and then it matches no NameServer address and places nothing.
import type { RmqEvent } from './types.js';

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '[::]']);

/** The address a NameServer's log gives as the NameServer's own, or null. */
export function namesrvOwnAddress(e: RmqEvent): string | null {
  if (e.type === 'startup' && e.fields.role === 'namesrv') {
    const m = /address (\S+):(\d+)/.exec(e.text);
    return m && !EVERY_INTERFACE.has(m[1]) ? `${m[1]}:${m[2]}` : null;
  }
  if (e.type === 'namesrv-list' && e.kind === 'namesrv' && e.entry === 'namesrv-list/updated' && e.fields.old === null && (e.thread === null || e.thread === 'main')) {
    const addrs = e.fields.addrs as string[];
    return addrs.length === 1 ? addrs[0] : null;
  }
  return null;
}
