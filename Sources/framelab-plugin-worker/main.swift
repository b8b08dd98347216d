// framelab-plugin-worker: runs one plugin element for an isolated host (see PluginWorker).
#if canImport(Glibc)
import Glibc
#endif
import FramelabPluginHost

exit(PluginWorker.main(Array(CommandLine.arguments.dropFirst())))
