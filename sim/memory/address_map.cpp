#include "memory/address_map.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace pulpsim {

Ram::Ram(std::string name, uint32_t base, uint32_t size)
    : name_(std::move(name)), base_(base), size_(size),
      bytes_(static_cast<uint8_t*>(std::calloc(std::max<size_t>(size, 1), 1))) {
    if (!bytes_)
        throw std::runtime_error(
            fmt::format("memory region '{}' [{:#x}, {:#x}): the host cannot reserve its {} bytes", name_,
                        base_, uint64_t{base_} + size_, size_));
}

void AddressMap::check_free(const std::string& name, uint32_t base, uint32_t size) const {
    if (size == 0) throw std::invalid_argument(fmt::format("memory region '{}' has size 0", name));
    const uint64_t end = uint64_t{base} + size;
    if (end > (uint64_t{1} << 32))
        throw std::invalid_argument(fmt::format("memory region '{}' at {:#x} runs past 4 GiB", name, base));
    auto overlaps = [&](uint32_t b, uint64_t e) { return base < e && b < end; };
    for (const auto& r : rams_)
        if (overlaps(r->base(), r->end()))
            throw std::invalid_argument(
                fmt::format("memory region '{}' [{:#x}, {:#x}) overlaps '{}'", name, base, end, r->name()));
    for (const auto& d : devices_)
        if (overlaps(d.base, uint64_t{d.base} + d.size))
            throw std::invalid_argument(fmt::format("memory region '{}' [{:#x}, {:#x}) overlaps device '{}'",
                                                    name, base, end, d.name));
}

Ram& AddressMap::add_ram(const std::string& name, uint32_t base, uint32_t size) {
    check_free(name, base, size);
    rams_.push_back(std::make_unique<Ram>(name, base, size));
    return *rams_.back();
}

void AddressMap::add_device(const std::string& name, uint32_t base, uint32_t size, MmioDevice& device,
                            unsigned latency) {
    check_free(name, base, size);
    devices_.push_back({name, base, size, &device, latency});
}

Ram* AddressMap::find_ram(uint32_t addr, uint32_t len) {
    for (auto& r : rams_)
        if (r->contains(addr, len)) return r.get();
    return nullptr;
}

const Ram* AddressMap::find_ram(uint32_t addr, uint32_t len) const {
    for (const auto& r : rams_)
        if (r->contains(addr, len)) return r.get();
    return nullptr;
}

uint32_t AddressMap::read(uint32_t addr, unsigned size, unsigned* latency, unsigned initiator) {
    if (Ram* r = find_ram(addr, size)) {
        if (latency) *latency = r->access_latency();
        uint32_t v = 0;
        std::memcpy(&v, r->data() + (addr - r->base()), size);
        return v;
    }
    for (auto& d : devices_)
        if (addr >= d.base && uint64_t{addr} + size <= uint64_t{d.base} + d.size) {
            if (latency) *latency = d.latency;
            ++device_accesses_;
            try {
                return d.device->read(addr - d.base, size, initiator);
            } catch (const NoRegister&) {
                throw DeviceHole{addr, false, d.name, d.base, d.size};
            }
        }
    throw BusError{addr, size, false};
}

void AddressMap::write(uint32_t addr, unsigned size, uint32_t value, unsigned* latency, unsigned initiator) {
    if (Ram* r = find_ram(addr, size)) {
        if (latency) *latency = r->access_latency();
        std::memcpy(r->data() + (addr - r->base()), &value, size);
        return;
    }
    for (auto& d : devices_)
        if (addr >= d.base && uint64_t{addr} + size <= uint64_t{d.base} + d.size) {
            if (latency) *latency = d.latency;
            ++device_accesses_;
            try {
                d.device->write(addr - d.base, size, value, initiator);
            } catch (const NoRegister&) {
                throw DeviceHole{addr, true, d.name, d.base, d.size};
            }
            return;
        }
    throw BusError{addr, size, true};
}

void AddressMap::read_bytes(uint32_t addr, void* dst, uint32_t len) const {
    if (len == 0) return;
    const Ram* r = find_ram(addr, len);
    if (!r) throw BusError{addr, len, false};
    std::memcpy(dst, r->data() + (addr - r->base()), len);
}

void AddressMap::write_bytes(uint32_t addr, const void* src, uint32_t len) {
    if (len == 0) return;
    Ram* r = find_ram(addr, len);
    if (!r) throw BusError{addr, len, true};
    std::memcpy(r->data() + (addr - r->base()), src, len);
}

std::string AddressMap::describe() const {
    std::string out;
    for (const auto& r : rams_) {
        if (!out.empty()) out += ", ";
        out += fmt::format("{} [{:#010x}, {:#010x})", r->name(), r->base(), r->end());
    }
    return out.empty() ? "no memory" : out;
}

std::string DeviceHole::describe(uint32_t pc) const {
    return fmt::format(
        "{} at address {:#010x} (pc {:#010x}): device '{}' [{:#010x}, {:#010x}) has no register to "
        "{} at offset {:#x}",
        write ? "store" : "load", addr, pc, device, base, uint64_t{base} + size, write ? "write" : "read",
        addr - base);
}

} // namespace pulpsim
