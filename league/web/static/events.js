// The event stream of ttt serve, shared by every page of one browser (a
// SharedWorker: common.js's live starts it). A browser allows six
// connections to one HTTP/1.1 server, and a stream holds one for as long
// as its page is open: with a stream per page, six open pages took them
// all, and every other request of every page waited. One stream for all
// the pages leaves five for their requests, however many pages are open.
//
// Each page is a port. A new port gets the stream's last state at once;
// every port gets each event, and whether the stream is up. A page that
// is hidden (left for another, perhaps kept in the back/forward cache)
// says "bye", and "hello" if it comes back; while no page listens, the
// stream is closed.

const ports = new Set();
let source = null;
let up = false;
let last = null; // the data of the last "round" event
let retry = null;

function send(msg) {
  for (const port of ports) port.postMessage(msg);
}

function open() {
  clearTimeout(retry);
  source = new EventSource("/api/events");
  source.addEventListener("open", () => {
    up = true;
    send({ up });
  });
  source.addEventListener("round", (e) => {
    up = true;
    last = e.data;
    send({ up, data: last });
  });
  source.addEventListener("error", () => {
    up = false;
    send({ up });
    // EventSource tries again by itself after a dropped connection, but
    // gives up on an answer that is not a stream (a 503 of a server
    // shutting down): then it is opened anew.
    if (source.readyState === EventSource.CLOSED) {
      source = null;
      retry = setTimeout(() => ports.size && !source && open(), 2000);
    }
  });
}

function hello(port) {
  ports.add(port);
  port.postMessage({ up, data: last });
  if (!source) open();
}

onconnect = (e) => {
  const port = e.ports[0];
  port.addEventListener("message", (m) => {
    if (m.data === "bye") {
      ports.delete(port);
      if (!ports.size && source) {
        source.close();
        source = null;
        up = false;
        last = null;
      }
    } else if (m.data === "hello") {
      hello(port);
    }
  });
  port.start();
  hello(port);
};
