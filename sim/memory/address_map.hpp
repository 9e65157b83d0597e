// The physical address space of a platform: RAM regions and memory-mapped devices.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace pulpsim {

// A device behind a window of the address map. Accesses are 1, 2 or 4 bytes wide and naturally aligned
// within the window; `offset` is relative to the window base; `initiator` is the requesting core's id.
class MmioDevice {
  public:
    virtual ~MmioDevice() = default;
    virtual uint32_t read(uint32_t offset, unsigned size, unsigned initiator) = 0;
    virtual void write(uint32_t offset, unsigned size, uint32_t value, unsigned initiator) = 0;
};

class Ram {
  public:
    // Zeroed. Throws std::runtime_error (one line) when the host cannot reserve `size` bytes.
    Ram(std::string name, uint32_t base, uint32_t size);

    const std::string& name() const { return name_; }
    uint32_t base() const { return base_; }
    uint32_t size() const { return size_; }
    uint64_t end() const { return uint64_t{base_} + size_; }
    bool contains(uint32_t addr, uint32_t len) const {
        return addr >= base_ && uint64_t{addr} + len <= end();
    }
    uint8_t* data() { return bytes_.get(); }
    // Extra cycles a core waits for each access that does not take its fast path (e.g. L2 seen from the
    // cluster); 0 for memories next to the core.
    unsigned access_latency() const { return access_latency_; }
    void set_access_latency(unsigned cycles) { access_latency_ = cycles; }
    const uint8_t* data() const { return bytes_.get(); }

  private:
    // calloc's pages read as zero until written: a region costs the host only the pages a program touches,
    // where filling it with zeros would touch them all.
    struct FreeBytes {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    std::string name_;
    uint32_t base_;
    uint32_t size_;
    std::unique_ptr<uint8_t[], FreeBytes> bytes_;
    unsigned access_latency_ = 0;
};

// Raised for an access that no region or device answers; carries what an error message needs.
struct BusError {
    uint32_t addr;
    unsigned size;
    bool write;
};

// Thrown by a device for an access at an offset where it has no register to read (or to write), a read of a
// write-only register included. AddressMap passes it on as DeviceHole: a program error the core reports, not
// a bus error a trap handler could take (CV32E40P has no data bus error input).
struct NoRegister {};
struct DeviceHole {
    uint32_t addr;
    bool write;
    std::string device;
    uint32_t base; // the device's window
    uint32_t size;
    // "load at address 0x1020000c (pc 0x1c000120): device 'event_unit' [0x10200000, 0x10201000) has no
    // register to read at offset 0xc"
    std::string describe(uint32_t pc) const;
};

class AddressMap {
  public:
    Ram& add_ram(const std::string& name, uint32_t base, uint32_t size);
    // `latency`: extra cycles a core waits for each access to the device.
    void add_device(const std::string& name, uint32_t base, uint32_t size, MmioDevice& device,
                    unsigned latency = 0);

    Ram* find_ram(uint32_t addr, uint32_t len = 1);
    const Ram* find_ram(uint32_t addr, uint32_t len = 1) const;
    const std::vector<std::unique_ptr<Ram>>& rams() const { return rams_; }

    // Slow-path accesses used when the fast window of a core misses; throw BusError. `latency`, when given,
    // receives the extra cycles the access costs.
    uint32_t read(uint32_t addr, unsigned size, unsigned* latency = nullptr, unsigned initiator = 0);
    void write(uint32_t addr, unsigned size, uint32_t value, unsigned* latency = nullptr,
               unsigned initiator = 0);

    // Host-side copies used by loaders and by host calls that read program buffers; throw BusError.
    void read_bytes(uint32_t addr, void* dst, uint32_t len) const;
    void write_bytes(uint32_t addr, const void* src, uint32_t len);

    // A short description of the map for error messages ("L2 [0x1c000000, 0x1c100000)").
    std::string describe() const;
    // Accesses read() and write() passed to a device so far.
    uint64_t device_accesses() const { return device_accesses_; }

  private:
    struct DeviceWindow {
        std::string name;
        uint32_t base;
        uint32_t size;
        MmioDevice* device;
        unsigned latency;
    };
    void check_free(const std::string& name, uint32_t base, uint32_t size) const;

    std::vector<std::unique_ptr<Ram>> rams_;
    std::vector<DeviceWindow> devices_;
    uint64_t device_accesses_ = 0;
};

} // namespace pulpsim
