#include "FileOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace gpuautopar {
namespace {

namespace fs = llvm::sys::fs;

// The file a write to `Path` must change: the final target of a symbolic
// link (an editor writing through `ln -s` changes what the link points at,
// and the link stays a link), otherwise `Path` itself.
std::string targetOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (fs::is_symlink_file(Path) && !fs::real_path(Path, Real))
    return std::string(Real);
  return Path.str();
}

} // namespace

std::string whyNotWritable(llvm::StringRef Path) {
  const std::string Target = targetOf(Path);
  fs::file_status Status;
  if (fs::status(Target, Status))
    return ""; // does not exist yet: created by the write
  if (Status.type() != fs::file_type::regular_file)
    return "it is not a regular file";
  // Checked on the permission bits as well as with access(): root may write
  // any file, but a file its owner made read-only is not meant to change.
  if ((Status.permissions() & fs::owner_write) == 0 || fs::access(Target, fs::AccessMode::Write))
    return "it is read-only; make it writable first (chmod u+w)";
  return "";
}

std::string replaceFile(llvm::StringRef Path, llvm::StringRef Text) {
  if (std::string Why = whyNotWritable(Path); !Why.empty())
    return "cannot write '" + Path.str() + "': " + Why;
  const std::string Target = targetOf(Path);
  fs::file_status Old;
  const bool Existed = !fs::status(Target, Old);

  llvm::SmallString<256> Model(Target);
  Model += ".gpu-autopar-%%%%%%";
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = fs::createUniqueFile(Model, FD, Temp))
    return "cannot create a temporary file next to '" + Target + "': " + EC.message();
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    // A replaced file keeps its permission bits (a 0600 file stays private);
    // a new one gets what any newly created file gets under the umask.
    std::error_code EC = Existed ? fs::setPermissions(FD, Old.permissions()) : std::error_code();
    if (!EC) {
      OS << Text;
      OS.close();
      EC = OS.error();
      OS.clear_error();
    }
    if (EC) {
      fs::remove(Temp);
      return "cannot write '" + Temp.str().str() + "': " + EC.message();
    }
  }
  if (std::error_code EC = fs::rename(Temp, Target)) {
    fs::remove(Temp);
    return "cannot replace '" + Target + "': " + EC.message();
  }
  return "";
}

} // namespace gpuautopar
