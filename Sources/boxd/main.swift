import BoxDaemon
