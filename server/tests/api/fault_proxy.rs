//! A TCP proxy in front of PostgreSQL that the test can take down and bring back, as a database
//! restart looks to its clients: open connections are cut and new ones refused (nothing listens)
//! until it is back. The machine's PostgreSQL itself keeps serving the other tests.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use tokio::{
    net::{TcpListener, TcpStream},
    task::AbortHandle,
};

pub struct FaultProxy {
    pub address: SocketAddr,
    target: SocketAddr,
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    listener: Option<AbortHandle>,
    connections: Vec<AbortHandle>,
}

impl FaultProxy {
    pub async fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let proxy = Self { address: listener.local_addr().unwrap(), target, state: Arc::default() };
        proxy.serve(listener);
        proxy
    }

    fn serve(&self, listener: TcpListener) {
        let (state, target) = (self.state.clone(), self.target);
        let accepting = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let relay = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                state.lock().unwrap().connections.push(relay.abort_handle());
            }
        });
        self.state.lock().unwrap().listener = Some(accepting.abort_handle());
    }

    /// Cuts every connection and stops listening: connecting is refused.
    pub fn go_down(&self) {
        let mut state = self.state.lock().unwrap();
        if let Some(listener) = state.listener.take() {
            listener.abort();
        }
        for connection in state.connections.drain(..) {
            connection.abort();
        }
    }

    /// Listens again on the same address.
    pub async fn come_back(&self) {
        // Tokio sets SO_REUSEADDR: the address is free again once the old listener is gone — which
        // is when its aborted task is next polled and dropped, not at `abort`: yield until then.
        for _ in 0..10_000 {
            if let Ok(listener) = TcpListener::bind(self.address).await {
                return self.serve(listener);
            }
            tokio::task::yield_now().await;
        }
        let listener = TcpListener::bind(self.address).await.expect("the proxy's address is free again");
        self.serve(listener);
    }
}
